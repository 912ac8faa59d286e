package lint

import (
	"os"
	"runtime/debug"
	"runtime/pprof"
	"testing"
	"time"
)

func TestZZProf(t *testing.T) {
	dir := os.Getenv("QC_PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(112 << 20)
	f, _ := os.Create("/tmp/cpuP.out")
	pprof.StartCPUProfile(f)
	start := time.Now()
	Run(Options{Dirs: []string{dir}, Recursive: true, Config: &Config{}, Rules: nil})
	pprof.StopCPUProfile()
	t.Logf("%v", time.Since(start))
}
