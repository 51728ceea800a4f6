package bytesize

import "testing"

// TestParse: units mean what they say, as --size reads them: MB is 10^6 bytes,
// MiB 2^20 (the bare letters, as PostgreSQL reads them, binary), so a planned 4:1
// database-to-memory ratio stays 4:1 whichever flag a size is given to.
func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "4096": 4096, "256MB": 256e6, "256MiB": 256 << 20, "256m": 256 << 20, "1.5GiB": 3 << 29,
		"2G": 2 << 30, "2GB": 2e9, " 64 MiB ": 64 << 20, "1kb": 1000, "1KiB": 1024, "1TB": 1e12} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1MB", "12XB", "MB", "abc", "1e30GB"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
	if s := Format(256 << 20); s != "256 MiB" {
		t.Errorf("Format = %q", s)
	}
	if s := Format(3 << 29); s != "1.5 GiB" {
		t.Errorf("Format = %q", s)
	}
}

// TestFormat: a size shows in the largest binary unit with a whole number part, one
// decimal unless whole; a cap given as 192MB keeps its decimal, as the log shows it.
func TestFormat(t *testing.T) {
	for in, want := range map[int64]string{0: "0 B", 999: "999 B", 1024: "1 KiB", 1536: "1.5 KiB",
		192_000_000: "183.1 MiB", 3 << 29: "1.5 GiB", 8 << 30: "8 GiB", 5 << 50: "5120 TiB"} {
		if got := Format(in); got != want {
			t.Errorf("Format(%d) = %q, want %q", in, got, want)
		}
	}
}
