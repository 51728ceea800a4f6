package results_test

// The load driver registers the workload's transaction types with results as it is
// linked in (driver/workload.go); results' own tests link it in for the same facts.
import _ "github.com/brokerbench/brokerbench/driver"
