// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-aws serves the test-only stand-in for the AWS
// provider (package testaws) for the CLIs that tests run; it exists only
// for tests and never calls AWS.
package main

import (
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

func main() {
	if err := tf5server.Serve(testaws.Address, testaws.NewServer()); err != nil {
		log.Fatal(err)
	}
}
