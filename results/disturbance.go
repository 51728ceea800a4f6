package results

// What disturbed a step's window: work that is not the workload's and lands in one
// window and not in another, so two repeats of one system differ by it (docs/host.md,
// "Disturbed windows"). A repeat's verdict compares undisturbed windows.

// Background is the database server's own work in a window: checkpoints completed and
// the buffers they wrote, and the seconds in which an autovacuum worker ran.
type Background struct {
	Checkpoints       int64   `json:"checkpoints"`
	CheckpointBuffers int64   `json:"checkpoint_buffers"`
	AutovacuumS       float64 `json:"autovacuum_s"`
}

// FlagDisturbed marks a step whose window something other than the workload
// disturbed; Disturbances names what.
const FlagDisturbed = "disturbed"
