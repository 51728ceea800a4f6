package run

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// Profile holds run's hidden profiling flags: for finding the driver's own cost
// (scripts/bench-cpu.sh measures it), not part of the run's options or its result
// file.
type Profile struct {
	CPU, Mem string
}

// Start begins the CPU profile; the returned stop ends it and writes the allocation
// profile. A profile that cannot be written is reported, never fatal to the run.
func (p *Profile) Start(logf func(string, ...any)) (stop func()) {
	var cpu *os.File
	if p.CPU != "" {
		f, err := os.Create(p.CPU)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			logf("cpuprofile: %v", err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			_ = cpu.Close()
		}
		if p.Mem == "" {
			return
		}
		runtime.GC()
		f, err := os.Create(p.Mem)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			logf("memprofile: %v", err)
		}
	}
}
