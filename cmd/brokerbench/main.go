// Command brokerbench loads, drives and measures a TPC-E-like brokerage workload on
// PostgreSQL, SQL Server and MariaDB/MySQL, and compares runs. Results are TPC-E-like,
// never TPC-E results.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }
