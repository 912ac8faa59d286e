// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// The pages that say how AWS rounds a minimum healthy percentage into a
// count: up, for an instance refresh ("as a percentage of the desired
// capacity of the Auto Scaling group (rounded up to the nearest
// integer)") and for an ECS rolling update ("as a percentage of the
// desiredCount (rounded up to the nearest integer)").
const (
	SourceRefreshRounding = "https://docs.aws.amazon.com/sdk-for-ruby/v2/api/Aws/AutoScaling/Types/RefreshPreferences.html"
	SourceECSRounding     = "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/ecs/aws.sdk.kotlin.services.ecs.model/-deployment-configuration/minimum-healthy-percent.html"
)

// ConsumersDuringDeploy is the fewest consumers a fleet of consumers keeps
// in service while a deployment or maintenance replaces them with a
// minimum healthy percentage of minHealthyPercent: ceil(c × h / 100),
// exact, as AWS rounds it (MATH.md, Capacity during a deployment). field
// names the percentage in an error.
func ConsumersDuringDeploy(consumers int64, minHealthyPercent float64, field string) (int64, error) {
	if consumers < 0 {
		return 0, inputErr("consumers", "must be at least 0, got %d", consumers)
	}
	if err := checkNonNegative(field, minHealthyPercent); err != nil {
		return 0, err
	}
	if minHealthyPercent > 100 {
		return 0, inputErr(field, "must be at most 100, got %v", minHealthyPercent)
	}
	return ceilRat(field, "the consumers kept in service", quo(mul(ratInt(consumers), dec(minHealthyPercent)), dec(100)))
}

// InstancesDuringReplacement is the fewest instances an auto scaling group
// of instances keeps in service while an instance refresh or its instance
// maintenance policy replaces them terminating first (a maximum healthy
// percentage of at most 100): ConsumersDuringDeploy, but never all of
// them, since AWS replaces at least one instance at a time ("Setting the
// minimum healthy percentage to 100 percent limits the rate of
// replacement to one instance at a time", SourceRefreshRounding).
// oneAtATime is true when that, not the percentage, sets the count.
func InstancesDuringReplacement(instances int64, minHealthyPercent float64, field string) (kept int64, oneAtATime bool, err error) {
	kept, err = ConsumersDuringDeploy(instances, minHealthyPercent, field)
	if err != nil || instances == 0 || kept < instances {
		return kept, false, err
	}
	return instances - 1, true, nil
}
