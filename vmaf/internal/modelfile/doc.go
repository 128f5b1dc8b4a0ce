// Package modelfile decodes libvmaf's JSON model format, the libsvm text
// inside it included, into Dict values: decoded and checked for shape
// (types, lengths, limits), but not yet checked against each other or
// against the features an engine can compute.
//
// Package vmaf builds its models from Dicts, and its generator of the
// built-in models writes Dict literals, so that a built-in model and the
// same model read from a file are one value.
package modelfile
