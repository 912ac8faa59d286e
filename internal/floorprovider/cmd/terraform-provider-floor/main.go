// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-floor serves the floor provider
// (internal/floorprovider) for the plan benchmarks of internal/provider.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/queuecap/terraform-provider-queuecap/internal/floorprovider"
)

func main() {
	err := providerserver.Serve(context.Background(), floorprovider.New, providerserver.ServeOpts{
		Address: "registry.terraform.io/queuecap/queuecap",
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
