package results

import (
	"time"
)

func SecondsDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
