package loader

// StopAfterSegment returns o with a hook that hears of every segment the load commits:
// tests cancel a load at a chosen segment with it.
func StopAfterSegment(o Options, f func(table string, seg int64)) Options {
	o.afterSegment = f
	return o
}
