package quickstart

import (
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }
