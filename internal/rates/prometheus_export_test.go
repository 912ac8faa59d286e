// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

// SetPrometheusLimits lowers a Prometheus source's points per request and
// response size, for the tests of chunking and of the body cap.
func SetPrometheusLimits(p *Prometheus, maxPoints int, maxResponseBytes int64) {
	p.maxPoints, p.maxResponseBytes = maxPoints, maxResponseBytes
}
