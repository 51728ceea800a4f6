package device

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// deviceContents names what a block device holds that a write would destroy: "a
// file system (ext4, label \"data\")", "a partition table (gpt)", "" when nothing is
// recognised. It only reads: blkid's low-level probe when blkid is installed, else
// the superblock magics of the common file systems.
func deviceContents(dev string) string {
	if s := blkidContents(dev); s != "" {
		return s
	}
	return magicContents(dev)
}

func blkidContents(dev string) string {
	bin, err := exec.LookPath("blkid")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-p", "-o", "export", dev).Output()
	if err != nil {
		return "" // exit 2: nothing found
	}
	kv := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			kv[k] = v
		}
	}
	t := kv["TYPE"]
	switch {
	case t == "swap":
		return "swap space"
	case t != "":
		what := "a file system"
		if strings.HasSuffix(t, "_member") || strings.HasPrefix(t, "crypto_") {
			what = "a volume"
		}
		if kv["LABEL"] != "" {
			return what + " (" + t + ", label " + quoteLabel(kv["LABEL"]) + ")"
		}
		return what + " (" + t + ")"
	case kv["PTTYPE"] != "":
		return "a partition table (" + kv["PTTYPE"] + ")"
	}
	return ""
}

// quoteLabel quotes a label, so a terminal escape in it stays text.
func quoteLabel(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return strconv.Quote(s)
}

// magicContents reads the first 68 KiB of dev for the magics of ext2/3/4, xfs,
// btrfs and swap.
func magicContents(dev string) string {
	f, err := os.Open(dev)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, 0x10048)
	n, _ := f.ReadAt(b, 0)
	b = b[:n]
	at := func(off int, magic string) bool {
		return len(b) >= off+len(magic) && string(b[off:off+len(magic)]) == magic
	}
	switch {
	case len(b) >= 0x468 && binary.LittleEndian.Uint16(b[0x438:]) == 0xEF53:
		incompat := binary.LittleEndian.Uint32(b[0x460:])
		compat := binary.LittleEndian.Uint32(b[0x45C:])
		switch {
		case incompat&(0x40|0x80|0x200) != 0: // extents, 64bit, flex_bg
			return "a file system (ext4)"
		case compat&0x4 != 0: // has_journal
			return "a file system (ext3)"
		}
		return "a file system (ext2)"
	case at(0, "XFSB"):
		return "a file system (xfs)"
	case at(0x10040, "_BHRfS_M"):
		return "a file system (btrfs)"
	case bytes.Contains(b[:min(len(b), 65536)], []byte("SWAPSPACE2")):
		return "swap space"
	}
	return ""
}
