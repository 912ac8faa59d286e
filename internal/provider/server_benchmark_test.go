// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"math/big"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tfsdklog"

	"github.com/queuecap/terraform-provider-queuecap/internal/floorprovider"
)

// BenchmarkServer calls the provider server in-process, as the CLI does
// over gRPC for each data source and function call of BenchmarkPlan:
// queuecap's server and the floor provider's side by side, so that the
// difference is queuecap's own work per call. Profile one RPC with, e.g.,
//
//	go test -run '^$' -bench 'BenchmarkServer/rpc=ReadDataSource/queuecap' -benchmem \
//		-cpuprofile cpu.out -memprofile mem.out ./internal/provider
//
// The calls log as under the CLI: a provider process the CLI starts logs
// the framework's trace entries, encoded as JSON, whatever TF_LOG says (the
// CLI drops them), so its calls cost that too; here they are encoded and
// discarded.
func BenchmarkServer(b *testing.B) {
	// The SDK's root logger writes to os.Stderr as it is when the logger is
	// made (under the CLI, a pipe the CLI reads), at the level tf6server
	// gives it: trace unless TF_LOG_SDK says otherwise.
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	stderr := os.Stderr
	os.Stderr = devNull
	ctx := tfsdklog.NewRootSDKLogger(context.Background(), tfsdklog.WithLevelFromEnv("TF_LOG_SDK"))
	os.Stderr = stderr
	servers := []struct {
		name   string
		server tfprotov6.ProviderServer
	}{
		{"queuecap", providerserver.NewProtocol6(New("bench")())()},
		{"floor", providerserver.NewProtocol6(floorprovider.New())()},
	}
	config := consumersConfig(b, 10000)
	number := func(n int64) *tfprotov6.DynamicValue {
		v, err := tfprotov6.NewDynamicValue(tftypes.Number, tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n)))
		if err != nil {
			b.Fatal(err)
		}
		return &v
	}
	args := []*tfprotov6.DynamicValue{number(10000), number(400), number(5000000), number(1800)}
	rpcs := []struct {
		name string
		call func(tfprotov6.ProviderServer) []*tfprotov6.Diagnostic
	}{
		{"GetProviderSchema", func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
			return rpcDiags(b, err, resp.Diagnostics)
		}},
		{"ValidateDataResourceConfig", func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "queuecap_consumers", Config: config})
			return rpcDiags(b, err, resp.Diagnostics)
		}},
		{"ReadDataSource", func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "queuecap_consumers", Config: config})
			return rpcDiags(b, err, resp.Diagnostics)
		}},
		{"CallFunction", func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "required_consumers", Arguments: args})
			if err == nil && resp.Error != nil {
				b.Fatal(resp.Error.Text)
			}
			return rpcDiags(b, err, nil)
		}},
	}
	for _, rpc := range rpcs {
		b.Run("rpc="+rpc.name, func(b *testing.B) {
			for _, s := range servers {
				b.Run(s.name, func(b *testing.B) {
					// The first call builds what the server caches.
					rpc.call(s.server)
					for b.Loop() {
						rpc.call(s.server)
					}
				})
			}
		})
	}
}

// consumersConfig is the configuration of one queuecap_consumers data
// source of BenchmarkPlan on the wire, the one with arrivalRate.
func consumersConfig(tb testing.TB, arrivalRate int64) *tfprotov6.DynamicValue {
	tb.Helper()
	ds := dataSources[0]
	objType, ok := ds.objType.(tftypes.Object)
	if !ok || ds.formula.Name != "consumers" {
		tb.Fatal("dataSources[0] is not queuecap_consumers")
	}
	given := map[string]int64{"arrival_rate": arrivalRate, "per_consumer_rate": 400, "max_backlog": 5000000, "rto_seconds": 1800}
	vals := make(map[string]tftypes.Value, len(objType.AttributeTypes))
	for name, t := range objType.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
		if n, ok := given[name]; ok {
			vals[name] = tftypes.NewValue(t, new(big.Float).SetInt64(n))
		}
	}
	v, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, vals))
	if err != nil {
		tb.Fatal(err)
	}
	return &v
}

func rpcDiags(tb testing.TB, err error, diags []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			tb.Fatalf("%s: %s", d.Summary, d.Detail)
		}
	}
	return diags
}
