//go:build !amd64

package floatadm

func thresholds(thr []float32, rows *thresholdRows) { thresholdsGo(thr, rows, 0) }
