// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-queuecap serves the queuecap Terraform provider.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/queuecap/terraform-provider-queuecap/internal/provider"
)

// version is set by goreleaser at build time.
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "start the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/queuecap/queuecap",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
