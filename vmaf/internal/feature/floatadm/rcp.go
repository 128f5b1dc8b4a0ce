package floatadm

// rcpEstimate is the reciprocal estimate div refines.
func rcpEstimate(d float32) float32 { return 1 / d }
