package main

import (
	"flag"
	"runtime"
	"strconv"
)

// widenParallel lets twice as many of the package's parallel tests run at once as
// there are CPUs, unless the command line gives -parallel. Those tests spend most of
// their time waiting (on paced runs, servers starting and child commands, not on the
// CPU): at go test's default of GOMAXPROCS at a time, they kept less than one of two
// cores busy, and the package's wall time was most of the suite's.
func widenParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
}
