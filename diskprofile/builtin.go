package diskprofile

// Builtin are the standard profiles, in --list order (docs/disk-profiles.md):
//   - the four profiles of a server vendor's storage benchmark (streaming, restore,
//     database, file server: 64 KB sequential, 8 KB and 64 KB random 67/33),
//   - Iometer's classic access specifications as storage reviews use them (file
//     server 80 % reads over a 512 B-64 KB mix, web server all reads over 512 B-512 KB,
//     workstation 80 % reads, 80 % random, 8 KB),
//   - the database's own: the WAL (sequential 8 KB writes, each followed by fdatasync,
//     one at a time) and the checkpoint (random 8 KB writes submitted in bursts of a
//     full queue, each 256 writes followed by an fsync, as a checkpoint writes its
//     dirty pages and then syncs the files).
var Builtin = []Profile{
	{Name: "streaming", Description: "sequential reads, 64 KB (backup, video streaming)",
		Stream: Stream{RW: "read", BlockSize: "64k"}},
	{Name: "restore", Description: "sequential writes, 64 KB (restore, bulk load)",
		Stream: Stream{RW: "write", BlockSize: "64k"}},
	{Name: "database", Description: "random, 67 % reads / 33 % writes, 8 KB (database data files)",
		Stream: Stream{RW: "randrw", ReadPercent: 67, BlockSize: "8k"}},
	{Name: "file-server", Description: "random, 67 % reads / 33 % writes, 64 KB",
		Stream: Stream{RW: "randrw", ReadPercent: 67, BlockSize: "64k"}},
	{Name: "iometer-file-server", Description: "Iometer's file server: random, 80 % reads, 512 B-64 KB mix",
		Stream: Stream{RW: "randrw", ReadPercent: 80, BSSplit: "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"}},
	{Name: "iometer-web-server", Description: "Iometer's web server: random reads, 512 B-512 KB mix",
		Stream: Stream{RW: "randread", BSSplit: "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1"}},
	{Name: "iometer-workstation", Description: "Iometer's workstation: 80 % reads, 80 % random, 8 KB",
		Stream: Stream{RW: "randrw", ReadPercent: 80, RandomPercent: 80, BlockSize: "8k"}},
	{Name: "wal", Description: "database log: sequential 8 KB writes, each followed by fdatasync, one outstanding",
		Stream: Stream{RW: "write", BlockSize: "8k", Depth: 1, Engine: "sync", Options: []string{"fdatasync=1"}}},
	{Name: "checkpoint", Description: "database checkpoint: random 8 KB writes in bursts of a full queue, an fsync every 256",
		Stream: Stream{RW: "randwrite", BlockSize: "8k",
			Options: []string{"iodepth_batch_submit={depth}", "iodepth_batch_complete_min={depth}", "fsync=256"}}},
}

// DefaultProfiles are the profiles a run without --profile runs: the reference's
// four.
var DefaultProfiles = []string{"streaming", "restore", "database", "file-server"}

// DefaultDepths are the outstanding-I/O levels of a run without --depths, those of
// the drive studies the profiles come from.
var DefaultDepths = []int{1, 4, 16, 64}
