// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/floorprovider"
)

// TestFloorHasQueuecapsShapes checks that the floor provider of the
// benchmarks serves queuecap_consumers and required_consumers with the
// attributes, flags and types queuecap serves, so that BenchmarkPlan and
// BenchmarkServer set queuecap against what the framework costs for the
// same shapes.
func TestFloorHasQueuecapsShapes(t *testing.T) {
	ctx := context.Background()
	schemas := func(p func() tfprotov6.ProviderServer) *tfprotov6.GetProviderSchemaResponse {
		resp, err := p().GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	q := schemas(providerserver.NewProtocol6(New("test")()))
	f := schemas(providerserver.NewProtocol6(floorprovider.New()))
	type flags struct {
		typ                          string
		required, optional, computed bool
	}
	attrs := func(s *tfprotov6.Schema) map[string]flags {
		out := map[string]flags{}
		for _, a := range s.Block.Attributes {
			out[a.Name] = flags{a.Type.String(), a.Required, a.Optional, a.Computed}
		}
		return out
	}
	qa, fa := attrs(q.DataSourceSchemas["queuecap_consumers"]), attrs(f.DataSourceSchemas["queuecap_consumers"])
	if len(qa) != len(fa) {
		t.Errorf("queuecap_consumers has %d attributes, the floor's %d", len(qa), len(fa))
	}
	for name, want := range qa {
		if got, ok := fa[name]; !ok || got != want {
			t.Errorf("floor attribute %s is %+v (present: %v), queuecap's %+v", name, got, ok, want)
		}
	}
	qf, ff := q.Functions["required_consumers"], f.Functions["required_consumers"]
	if ff == nil || len(qf.Parameters) != len(ff.Parameters) {
		t.Fatalf("the floor's required_consumers is %+v, queuecap's has %d parameters", ff, len(qf.Parameters))
	}
	for i, p := range qf.Parameters {
		fp := ff.Parameters[i]
		if p.Name != fp.Name || !p.Type.Equal(fp.Type) || p.AllowNullValue != fp.AllowNullValue || p.AllowUnknownValues != fp.AllowUnknownValues {
			t.Errorf("parameter %d: floor %+v, queuecap %+v", i, fp, p)
		}
	}
	if !qf.Return.Type.Equal(ff.Return.Type) {
		t.Errorf("return: floor %s, queuecap %s", ff.Return.Type, qf.Return.Type)
	}
}

// TestFloorReturnsQueuecapsResults checks that, for the benchmark's
// middle sizing, the floor's queuecap_consumers returns the very state
// queuecap's does, byte for byte on the wire, so that the CLI spends on
// the floor's results what it spends on queuecap's.
func TestFloorReturnsQueuecapsResults(t *testing.T) {
	ctx := context.Background()
	config := consumersConfig(t, 10100)
	read := func(s tfprotov6.ProviderServer) []byte {
		resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "queuecap_consumers", Config: config})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("ReadDataSource: %v %+v", err, resp.Diagnostics)
		}
		return resp.State.MsgPack
	}
	q := read(providerserver.NewProtocol6(New("test")())())
	f := read(providerserver.NewProtocol6(floorprovider.New())())
	if bytes.Equal(q, f) {
		return
	}
	attrs := func(raw []byte) map[string]tftypes.Value {
		v, err := (&tfprotov6.DynamicValue{MsgPack: raw}).Unmarshal(dataSources[0].objType)
		var m map[string]tftypes.Value
		if err == nil {
			err = v.As(&m)
		}
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	qa, fa := attrs(q), attrs(f)
	for name, qv := range qa {
		if fv := fa[name]; !qv.Equal(fv) {
			t.Errorf("%s: the floor returns %s, queuecap %s", name, fv, qv)
		}
	}
	if !t.Failed() {
		t.Errorf("the floor's state is not queuecap's byte for byte, though every attribute is equal")
	}
}

// TestBigNumberOfWholeFloats checks bigNumber's shortcut for whole
// float64s against the decimal it stands for.
func TestBigNumberOfWholeFloats(t *testing.T) {
	for _, n := range []float64{0, math.Copysign(0, -1), 1, -1, 400, 10000, 5e6, 123456789012345, -999999999999999, 1e15 - 1} {
		want, _, err := big.ParseFloat(capacity.Decimal(n), 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got := bigNumber(n)
		if got.Cmp(want) != 0 || got.Prec() != want.Prec() || got.Mode() != want.Mode() || got.Signbit() != want.Signbit() ||
			got.Acc() != want.Acc() || got.Text('g', -1) != want.Text('g', -1) {
			t.Errorf("bigNumber(%v) = %s (prec %d, %v), want %s (prec %d, %v)", n, got.Text('g', -1), got.Prec(), got.Acc(), want.Text('g', -1), want.Prec(), want.Acc())
		}
	}
}
