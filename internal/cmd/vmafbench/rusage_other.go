//go:build !unix

package main

import "os"

// maxRSSKiB is unknown (0) where the system reports no resource usage.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
