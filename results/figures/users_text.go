package figures

import (
	"fmt"
	"strings"
)

// AtUsers names the user counts of some steps, in the order given, as a phrase: "at 4,
// 8 users". Steps at one count (--find-max's probes all hold theirs, --repeat's runs
// repeat theirs) are said once with how many there were: "3 times at 8 users", "at 4
// users, 3 times at 8 users".
func AtUsers(users []int) string {
	var counts []int
	times := map[int]int{}
	for _, u := range users {
		if times[u] == 0 {
			counts = append(counts, u)
		}
		times[u]++
	}
	var parts, once []string
	flush := func() {
		if len(once) > 0 {
			parts = append(parts, "at "+strings.Join(once, ", ")+" users")
			once = nil
		}
	}
	for _, u := range counts {
		if times[u] == 1 {
			once = append(once, fmt.Sprint(u))
			continue
		}
		flush()
		parts = append(parts, fmt.Sprintf("%d times at %d users", times[u], u))
	}
	flush()
	return strings.Join(parts, ", ")
}
