package compare

import "fmt"

// FramesWarnings says, for each run against the base, when the two ran their frames
// in different places: the server mode saves the round trips and the client's work
// that the client mode's response times include, so their response times (and the
// tps a client-bound run reaches) are not comparable.
func (c *Comparison) FramesWarnings() []string {
	var out []string
	base := c.Inputs[0]
	for r := 1; r < len(c.Inputs); r++ {
		in := c.Inputs[r]
		if fb, fr := base.Run.FramesMode(), in.Run.FramesMode(); fb != fr {
			out = append(out, fmt.Sprintf("%s vs %s: the frames ran on the %s in one and on the %s in the other (run --frames); their response times are not comparable.",
				in.Name(), base.Name(), fr, fb))
		}
	}
	return out
}
