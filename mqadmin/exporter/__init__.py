"""The Prometheus exporter (``exportMetrics``): one scrape of the cluster within a deadline, its page
under apache/rocketmq-exporter's names and ours, and the HTTP server that answers scrapers."""
