terraform {
  required_providers {
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

# The provider takes no arguments: every data source is arithmetic over its
# own arguments, with no credentials and no network calls.
provider "queuecap" {}
