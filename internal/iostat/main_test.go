package iostat

import (
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testpg"
)

func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }
