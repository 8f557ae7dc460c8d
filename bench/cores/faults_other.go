//go:build !linux

package main

// faults is measured on Linux only.
func faults(int) {}
