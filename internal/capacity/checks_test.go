package capacity_test

import (
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestFindingFormulas(t *testing.T) {
	total, err := capacity.TotalCapacity(10*400, 5*200)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "TotalCapacity", total, 5000)
	_, err = capacity.TotalCapacity(math.MaxFloat64, math.MaxFloat64)
	assertInputError(t, err, "per_consumer_rate")

	// 32 × 400 against 10,000: 28 % spare; nothing arriving: undefined.
	h, err := capacity.Headroom(12800, 10000)
	if err != nil {
		t.Fatal(err)
	}
	assertOptional(t, "Headroom", h, ptr(0.28))
	if h, _ := capacity.Headroom(400, 0); h != nil {
		t.Errorf("Headroom with no arrivals = %v, want nil", *h)
	}

	c, err := capacity.HeadroomCapacity(10000, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "HeadroomCapacity", c, 12000)

	// 5 M messages in 1,800 s need 2,777.8 msg/s of surplus.
	s, err := capacity.RequiredSurplus(5e6, 1800)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "RequiredSurplus", s, 5e6/1800)
	_, err = capacity.RequiredSurplus(5e6, 0)
	assertInputError(t, err, "rto_seconds")

	v, err := capacity.MinVisibilityTimeout(30)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "MinVisibilityTimeout", v, 180)
	_, err = capacity.MinVisibilityTimeout(1e308)
	assertInputError(t, err, "timeout")

	r, err := capacity.ReceivesPerDay(30)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "ReceivesPerDay", r, 2880)
	_, err = capacity.ReceivesPerDay(1e-320)
	assertInputError(t, err, "visibility_timeout_seconds")
}
