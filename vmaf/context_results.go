package vmaf

// ResultsAsScored reports whether the Context reports each frame's result
// as soon as it is scored, holding the pictures until its features are
// read (the native engine), rather than copying the pictures at Submit and
// reporting every result at Flush (libvmaf). A host that wants to look at
// a frame's pictures once its score is known can only do so in the first
// case, by keeping them a little longer.
func (c *Context) ResultsAsScored() bool {
	_, native := c.s.(*nativeScorer)
	return native
}
