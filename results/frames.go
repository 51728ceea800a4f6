package results

// The places a run's transactions ran their frames (run --frames): the driver sent
// every statement (client), or one server routine per transaction ran them inside
// the database (server). A file without the field predates server frames: client.
const (
	FramesClient = "client"
	FramesServer = "server"
)

// FramesMode is where r ran its frames.
func (r *Run) FramesMode() string {
	if r.Frames == "" {
		return FramesClient
	}
	return r.Frames
}
