package testaws

// aws_sns_topic_subscription: schema of AWS provider v6.47.0.
func init() {
	register(resourceType{
		name: "aws_sns_topic_subscription",
		body: block{attrs: attrs{
			"arn":                             computed(str),
			"confirmation_timeout_in_minutes": optional(num).withDefault(1),
			"confirmation_was_authenticated":  computed(boolean),
			"delivery_policy":                 optional(str),
			"endpoint":                        required(str).replaces(),
			"endpoint_auto_confirms":          optional(boolean).withDefault(false),
			"filter_policy":                   optional(str),
			"filter_policy_scope":             optionalComputed(str),
			"id":                              idAttr,
			"owner_id":                        computed(str),
			"pending_confirmation":            computed(boolean),
			"protocol":                        required(str).replaces(),
			"raw_message_delivery":            optional(boolean).withDefault(false),
			"redrive_policy":                  optional(str),
			"region":                          regionAttr,
			"replay_policy":                   optional(str),
			"subscription_role_arn":           optional(str),
			"topic_arn":                       required(str).replaces(),
		}},
		created: func(c created) map[string]string {
			arn := c.str("topic_arn") + ":" + c.uuid()
			return map[string]string{"id": arn, "arn": arn, "owner_id": account}
		},
	})
}
