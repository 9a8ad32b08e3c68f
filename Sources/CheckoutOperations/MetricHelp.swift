/// The `# HELP` text of every metric the worker records, by name.
///
/// Prometheus shows it beside the metric; a name missing here (a library's) gets a line saying whose it is.
enum MetricHelp {
    static let texts: [String: String] = [
        "checkout_commands_received_total": "Command messages delivered to the worker, by command.",
        "checkout_commands_completed_total": "Command messages settled, by command and result (acked, retried, dead_lettered).",
        "checkout_command_processing_seconds": "Time from a command's delivery to its acknowledgement, by command.",
        "checkout_command_queue_wait_seconds":
            "Time a command waited in the broker, from its AMQP timestamp (whole seconds) to its delivery, by command.",
        "checkout_commands_untimed_total":
            "Commands whose queue wait could not be measured, by command and reason (absent or unusable timestamp).",
        "checkout_commands_in_flight": "Commands being handled by this process now.",
        "checkout_dead_letters_total": "Messages sent to the dead-letter exchange, by command and x-error-reason.",
        "checkout_command_retries_total": "Attempts of a use case that failed transiently and will be retried, by command and error code.",
        "checkout_commands_abandoned_total": "Commands given up (answered unavailable), by command and error code.",
        "checkout_command_duration_seconds": "Time a use case took, by command and result.",
        "checkout_orders_total": "PlaceOrder outcomes, by result and rejection reason.",
        "checkout_cart_syncs_total": "SyncCart outcomes, by result and rejection reason.",
        "checkout_cart_adjustments_total": "Lines a sync changed from what the client sent, by reason.",
        "checkout_publish_confirm_seconds": "Time from publishing a result event to the broker's confirm, by event type.",
        "checkout_publish_failures_total": "Result events the broker did not confirm, by event type and error code.",
        "checkout_broker_connected": "1 while the broker connection is up, 0 while it is being recovered.",
        "checkout_broker_blocked": "1 while the broker blocks the worker's publishes (a memory or disk alarm).",
        "checkout_broker_reconnects_total": "Times the broker connection was recovered after a loss.",
        "checkout_broker_publishes_total": "Messages published on the broker connection.",
        "checkout_broker_deliveries_total": "Messages delivered to consumers on the broker connection.",
        "checkout_broker_ack_frames_total": "basic.ack frames sent; fewer than deliveries when acks are coalesced.",
        "checkout_broker_publish_writes_total": "Socket writes that carried publishes; fewer than publishes when gathered.",
        "checkout_broker_channels_closed_total": "Channels the broker closed with an error.",
        "checkout_broker_confirm_timeouts_total": "Publishes failed because the broker did not confirm them in time.",
        "checkout_broker_consumers_cancelled_total":
            "Consumers the broker cancelled (their queue was deleted); each was declared again and resumed.",
        "checkout_broker_stale_settlements_total": "Acks dropped because their delivery's channel was gone (the broker redelivers those).",
        "checkout_database_round_trips_total":
            "Statements sent to the database, each one round trip (on SQLite, a call on the connection's thread).",
        "checkout_database_recompilations_total":
            "Times SQLite compiled a kept statement again (a schema change); 0 in steady state.",
        "checkout_log_lines_dropped_total": "Log lines dropped because standard error did not take them as fast as they came, or failed.",
        "checkout_build_info": "Always 1; the version label says which build of checkout-worker runs.",
    ]

    /// The help of `name`: the worker's own text, or whose metric it is.
    static func text(for name: String) -> String {
        texts[name] ?? "Recorded by a library the worker uses (\(name.split(separator: "_").first ?? Substring(name)))."
    }
}
