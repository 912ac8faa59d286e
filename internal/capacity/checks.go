package capacity

// Small formulas the linter's findings state; here so that no rule
// computes arithmetic of its own.

// Defaults shared by the provider and the linter.
const (
	DefaultForecastStepSeconds = 300 // five minutes, a common dashboard resolution
	DefaultCallsPerJob         = 1
	// LambdaVisibilityFactor is AWS's guidance for SQS event sources: a
	// queue's visibility timeout at least six times the function's timeout.
	LambdaVisibilityFactor = 6
	SecondsPerDay          = 86400
)

// TotalCapacity is the summed completion rate of several fleets.
func TotalCapacity(capacities ...float64) (float64, error) {
	total := 0.0
	for _, c := range capacities {
		if err := checkNonNegative("per_consumer_rate", c); err != nil {
			return 0, err
		}
		total += c
	}
	if err := checkResult("per_consumer_rate", "the total capacity of the consumers", total); err != nil {
		return 0, err
	}
	return total, nil
}

// Headroom is spare capacity as a fraction of the effective arrival rate,
// (C − λ_eff) / λ_eff; nil when nothing arrives.
func Headroom(capacity, effectiveArrival float64) (*float64, error) {
	if err := checkNonNegative("per_consumer_rate", capacity); err != nil {
		return nil, err
	}
	if err := checkNonNegative("arrival_rate", effectiveArrival); err != nil {
		return nil, err
	}
	if effectiveArrival == 0 {
		return nil, nil
	}
	h := NetRate(capacity, effectiveArrival) / effectiveArrival
	if err := checkResult("arrival_rate", "the headroom surplus / effective arrival", h); err != nil {
		return nil, err
	}
	return &h, nil
}

// HeadroomCapacity is the capacity that leaves min_headroom spare:
// λ_eff · (1 + h_min).
func HeadroomCapacity(effectiveArrival, minHeadroom float64) (float64, error) {
	if err := checkNonNegative("arrival_rate", effectiveArrival); err != nil {
		return 0, err
	}
	if err := checkNonNegative("min_headroom", minHeadroom); err != nil {
		return 0, err
	}
	c := effectiveArrival * (1 + minHeadroom)
	if err := checkResult("min_headroom", "the capacity effective arrival × (1 + min_headroom)", c); err != nil {
		return 0, err
	}
	return c, nil
}

// RequiredSurplus is the surplus that clears a backlog within an RTO,
// B / RTO.
func RequiredSurplus(backlog, rtoSeconds float64) (float64, error) {
	if err := checkNonNegative("max_backlog", backlog); err != nil {
		return 0, err
	}
	if err := checkPositive("rto_seconds", rtoSeconds); err != nil {
		return 0, err
	}
	s := backlog / rtoSeconds
	if err := checkResult("max_backlog", "the required surplus max_backlog / rto_seconds", s); err != nil {
		return 0, err
	}
	return s, nil
}

// MinVisibilityTimeout is the visibility timeout a Lambda-consumed queue
// needs: LambdaVisibilityFactor × the function's timeout.
func MinVisibilityTimeout(functionTimeoutSeconds float64) (float64, error) {
	if err := checkPositive("timeout", functionTimeoutSeconds); err != nil {
		return 0, err
	}
	v := LambdaVisibilityFactor * functionTimeoutSeconds
	if err := checkResult("timeout", "six function timeouts", v); err != nil {
		return 0, err
	}
	return v, nil
}

// ReceivesPerDay is how often a message that always fails is received
// again in a day without a dead-letter queue: one receive per visibility
// timeout.
func ReceivesPerDay(visibilityTimeoutSeconds float64) (float64, error) {
	if err := checkPositive("visibility_timeout_seconds", visibilityTimeoutSeconds); err != nil {
		return 0, err
	}
	r := SecondsPerDay / visibilityTimeoutSeconds
	if err := checkResult("visibility_timeout_seconds", "the receives per day", r); err != nil {
		return 0, err
	}
	return r, nil
}
