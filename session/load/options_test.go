package load

import (
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// load --size reads sizes as --server-memory, disk --size and replay --span do
// (bytesize.Parse), so a database planned at four times a memory cap given in the
// same words is four times it.
func TestSizeReadsEverySizeForm(t *testing.T) {
	for _, in := range []string{"50GB", "1.5 TB", "800MiB", "2gib", "120 MB", "512M", "2G", "900000kb"} {
		o := Options{Customers: schema.LoadUnit, TradeDays: schema.MinTradeDays, Workers: 1, Size: in}
		if err := o.Validate(); err != nil {
			t.Errorf("load --size %s: %v", in, err)
		}
	}
}
