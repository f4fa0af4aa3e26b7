package summary

// RoundTrip is summarise (write a summary, parse it back) for the tests of
// package summary_test.
var RoundTrip = summarise
