package driver

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseUsers: whatever --users says, the parser returns an error or a plan the
// driver can run: at least one level, every level in 1..MaxUsers, a range strictly
// ascending to the end the user typed, at most 1001 levels, and an error that fits
// on one line. It never panics.
func FuzzParseUsers(f *testing.F) {
	for _, s := range []string{"50:300:50", "10,50,100,300", "1", "300:50:50", "50:300:0", "a,b", "10,,20", "", " 5 : 10 ",
		"1:100000:1", "1:100000", "100000", "100001", "-5", "1:2:3:4", ":", ",", "0x10", "1e3", "+5", "9223372036854775808",
		"5:5", "1:1000:1", "1:1002:1", "٣", "10, 20 ,30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		users, err := ParseUsers(s)
		if err != nil {
			if users != nil {
				t.Errorf("ParseUsers(%q): levels %v with error %v", s, users, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("ParseUsers(%q): error on more than one line: %q", s, err)
			}
			return
		}
		if len(users) == 0 || len(users) > 1001 {
			t.Fatalf("ParseUsers(%q) = %d levels", s, len(users))
		}
		for i, u := range users {
			if u < 1 || u > MaxUsers {
				t.Fatalf("ParseUsers(%q): level %d is %d", s, i, u)
			}
			if strings.Contains(s, ":") && i > 0 && u <= users[i-1] {
				t.Fatalf("ParseUsers(%q) = %v: a range that does not ascend", s, users)
			}
		}
		p := Plan{Users: users, Step: time.Minute, Warmup: time.Second}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseUsers(%q) = %v, which the plan refuses: %v", s, users, err)
		}
		if steps := p.Steps(); len(steps) != len(users) || steps[len(steps)-1].End != p.Duration() {
			t.Fatalf("ParseUsers(%q): plan of %d steps ending at %v for %d levels", s, len(steps), steps[len(steps)-1].End, len(users))
		}
	})
}
