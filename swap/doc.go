// Package swap prepares VMAF models for a swap in a running measurement:
// a registry of the models a swap may name (the built-ins and the model
// files in allowed directories), a loader and validator that run off the
// streaming threads, and the swap state machine — preparing, validating,
// ready, applied (or failed).
package swap
