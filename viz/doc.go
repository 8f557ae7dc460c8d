// Package viz draws what coordcheck finds, for people who would rather
// look than read: a counterexample as a message sequence chart in one
// self-contained HTML file (a lane per process, an arrow from each send
// to its delivery, faults, timers, roles, the lasso's cycle, and the
// world after every step on a click), and small inline-SVG charts (line
// plots, bar charts) for the reports. Everything it writes is the same
// bytes for the same input and fetches nothing from a network.
package viz
