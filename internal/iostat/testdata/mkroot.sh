#!/bin/sh
# Regenerates testdata/root: a fake /proc and /sys for the device-resolution tests.
#   sda  (8:0)  partitions sda1 (8:1, a filesystem directly) and sda2 (8:2, under dm-0)
#   dm-0 (253:0) = LVM volume on sda2
#   sdb1 (8:17) + sdc1 (8:33) -> md0 (9:0) RAID1 -> dm-1 (253:1) LVM volume on md0
#   sdd  (8:48) whole disk without partitions
set -e
cd "$(dirname "$0")"
rm -rf root
R=root/sys
dev() { # dev PATH MAJ:MIN [partition]
  mkdir -p "$R/devices/$1"
  echo "$2" > "$R/devices/$1/dev"
  [ "$3" = partition ] && echo 1 > "$R/devices/$1/partition"
  name=$(basename "$1")
  mkdir -p "$R/dev/block" "$R/class/block"
  ln -s "../../devices/$1" "$R/dev/block/$2"
  ln -s "../../devices/$1" "$R/class/block/$name"
  if [ "$3" != partition ]; then mkdir -p "$R/block"; ln -s "../devices/$1" "$R/block/$name"; fi
}
dev pci0/block/sda 8:0
dev pci0/block/sda/sda1 8:1 partition
dev pci0/block/sda/sda2 8:2 partition
dev pci0/block/sdb 8:16
dev pci0/block/sdb/sdb1 8:17 partition
dev pci0/block/sdc 8:32
dev pci0/block/sdc/sdc1 8:33 partition
dev pci0/block/sdd 8:48
dev virtual/block/dm-0 253:0
dev virtual/block/md0 9:0
dev virtual/block/dm-1 253:1
slave() { mkdir -p "$R/devices/virtual/block/$1/slaves"; ln -s "../../../$2" "$R/devices/virtual/block/$1/slaves/$(basename "$2")"; }
slave dm-0 pci0/block/sda/sda2
slave md0 pci0/block/sdb/sdb1
slave md0 pci0/block/sdc/sdc1
slave dm-1 virtual/block/md0
mkdir -p "$R/devices/virtual/block/dm-0/dm"; echo vg-data > "$R/devices/virtual/block/dm-0/dm/name"
mkdir -p root/proc
cp diskstats.txt root/proc/diskstats
