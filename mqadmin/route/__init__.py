"""The route core: RocketMQ name server route tables, pure and synchronous."""
