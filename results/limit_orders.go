package results

// LimitOrders are the market emulator's limit orders not yet completed at a window's
// end: waiting for the price wave to reach their limit, triggered and waiting for a
// ticker slot, and never fillable (a limit outside the wave).
type LimitOrders struct {
	Waiting    int64 `json:"waiting"`
	Triggered  int64 `json:"triggered"`
	Unfillable int64 `json:"unfillable,omitempty"`
}
