# Policy documents the provider renders at plan, each an output.

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

data "aws_iam_policy_document" "anyone" {
  statement {
    sid       = "Read"
    actions   = ["sqs:ReceiveMessage", "sqs:GetQueueAttributes"]
    resources = ["arn:aws:sqs:us-east-1:123456789012:orders"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = ["arn:aws:sns:us-east-1:123456789012:orders"]
    }
  }
}

data "aws_iam_policy_document" "merged" {
  source_policy_documents = [data.aws_iam_policy_document.anyone.json]

  statement {
    sid       = "Read"
    effect    = "Deny"
    actions   = ["sqs:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::123456789012:root", "arn:aws:iam::210987654321:root"]
    }
  }
}

output "anyone" {
  value = data.aws_iam_policy_document.anyone.json
}

output "merged" {
  value = data.aws_iam_policy_document.merged.minified_json
}
