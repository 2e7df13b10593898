CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_created_idx` ON `api_keys` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `auth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text,
	`email` text,
	`data` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_tokens_token_hash_unique` ON `auth_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_tokens_user_purpose_idx` ON `auth_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `auth_tokens_email_purpose_idx` ON `auth_tokens` (`email`,`purpose`,`created_at`);--> statement-breakpoint
CREATE INDEX `auth_tokens_expires_idx` ON `auth_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`email` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_identities_provider_subject_unique` ON `oauth_identities` (`provider`,`subject`);--> statement-breakpoint
CREATE INDEX `oauth_identities_user_idx` ON `oauth_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`user_agent` text,
	`ip` text,
	`method` text,
	`two_factor_pending` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_created_idx` ON `sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`password_hash` text,
	`email_verified_at` integer,
	`totp_secret` text,
	`totp_enabled_at` integer,
	`totp_last_step` integer,
	`plan` text DEFAULT 'free' NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	CONSTRAINT "users_email_lower" CHECK("email" = lower("email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_deleted_at_idx` ON `users` (`deleted_at`);--> statement-breakpoint
CREATE TABLE `exports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text,
	`job_id` text,
	`format` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`key` text,
	`filename` text,
	`bytes` integer,
	`content_type` text,
	`error` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	`expires_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "exports_owner" CHECK("project_id" IS NOT NULL OR "job_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX `exports_project_created_idx` ON `exports` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `exports_user_created_idx` ON `exports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `exports_job_idx` ON `exports` (`job_id`);--> statement-breakpoint
CREATE INDEX `exports_expires_idx` ON `exports` (`expires_at`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_user_name_idx` ON `folders` (`user_id`,`name`);--> statement-breakpoint
CREATE TABLE `pages` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`page_index` integer NOT NULL,
	`width` integer DEFAULT 0 NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`source_key` text,
	`image_key` text,
	`mask_key` text,
	`clean_key` text,
	`render_key` text,
	`path` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`error_code` text,
	`rotation` integer DEFAULT 0 NOT NULL,
	`detected_language` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_project_index_unique` ON `pages` (`project_id`,`page_index`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`folder_id` text,
	`name` text NOT NULL,
	`tool` text NOT NULL,
	`status` text DEFAULT 'processing' NOT NULL,
	`source_language` text,
	`target_language` text,
	`page_count` integer DEFAULT 0 NOT NULL,
	`thumbnail_key` text,
	`source_job_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`trashed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`source_job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `projects_user_trash_updated_idx` ON `projects` (`user_id`,`trashed_at`,`updated_at`);--> statement-breakpoint
CREATE INDEX `projects_user_trash_created_idx` ON `projects` (`user_id`,`trashed_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `projects_user_tool_idx` ON `projects` (`user_id`,`tool`);--> statement-breakpoint
CREATE INDEX `projects_folder_idx` ON `projects` (`folder_id`);--> statement-breakpoint
CREATE INDEX `projects_source_job_idx` ON `projects` (`source_job_id`);--> statement-breakpoint
CREATE INDEX `projects_trashed_at_idx` ON `projects` (`trashed_at`);--> statement-breakpoint
CREATE TABLE `regions` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`page_id` text NOT NULL,
	`reading_order` integer DEFAULT 0 NOT NULL,
	`kind` text DEFAULT 'text' NOT NULL,
	`x` integer NOT NULL,
	`y` integer NOT NULL,
	`w` integer NOT NULL,
	`h` integer NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`user_text` text,
	`source_language` text,
	`translation` text,
	`user_translation` text,
	`confidence` real,
	`lines` text,
	`style` text,
	`vertical` integer DEFAULT false NOT NULL,
	`overflow` text,
	`leftover_text` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "regions_box_nonnegative" CHECK("w" >= 0 AND "h" >= 0)
);
--> statement-breakpoint
CREATE INDEX `regions_page_order_idx` ON `regions` (`page_id`,`reading_order`);--> statement-breakpoint
CREATE INDEX `regions_project_idx` ON `regions` (`project_id`);--> statement-breakpoint
CREATE TABLE `shares` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_prefix` text NOT NULL,
	`password_hash` text,
	`allow_download` integer DEFAULT true NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`last_viewed_at` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shares_token_hash_unique` ON `shares` (`token_hash`);--> statement-breakpoint
CREATE INDEX `shares_project_created_idx` ON `shares` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `shares_user_idx` ON `shares` (`user_id`);--> statement-breakpoint
CREATE INDEX `shares_expires_idx` ON `shares` (`expires_at`);--> statement-breakpoint
CREATE TABLE `table_cells` (
	`table_id` text NOT NULL,
	`row` integer NOT NULL,
	`col` integer NOT NULL,
	`row_span` integer DEFAULT 1 NOT NULL,
	`col_span` integer DEFAULT 1 NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`confidence` real,
	`edited_at` integer,
	PRIMARY KEY(`table_id`, `row`, `col`),
	FOREIGN KEY (`table_id`) REFERENCES `tables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tables` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`page_id` text NOT NULL,
	`x` integer NOT NULL,
	`y` integer NOT NULL,
	`w` integer NOT NULL,
	`h` integer NOT NULL,
	`rows` integer NOT NULL,
	`cols` integer NOT NULL,
	`confidence` real,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tables_page_idx` ON `tables` (`page_id`);--> statement-breakpoint
CREATE INDEX `tables_project_idx` ON `tables` (`project_id`);--> statement-breakpoint
CREATE TABLE `job_events` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`status` text,
	`stage` text,
	`page` integer,
	`message` text,
	`data` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`job_id`, `seq`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `job_pages` (
	`job_id` text NOT NULL,
	`page_index` integer NOT NULL,
	`page_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`stage` text,
	`error_code` text,
	`error_message` text,
	`keys` text DEFAULT '{}' NOT NULL,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`job_id`, `page_index`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `job_pages_page_idx` ON `job_pages` (`page_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text,
	`parent_job_id` text,
	`batch_index` integer,
	`api_key_id` text,
	`kind` text DEFAULT 'single' NOT NULL,
	`tool` text NOT NULL,
	`status` text DEFAULT 'created' NOT NULL,
	`stage` text,
	`options` text DEFAULT '{}' NOT NULL,
	`source_name` text,
	`source_key` text,
	`source_bytes` integer,
	`source_type` text,
	`pages_total` integer DEFAULT 0 NOT NULL,
	`pages_done` integer DEFAULT 0 NOT NULL,
	`pages_failed` integer DEFAULT 0 NOT NULL,
	`credits_reserved` integer DEFAULT 0 NOT NULL,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`error` text,
	`output` text,
	`idempotency_key` text,
	`workflow_instance_id` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`parent_job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `jobs_user_created_idx` ON `jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_user_status_created_idx` ON `jobs` (`user_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_user_tool_created_idx` ON `jobs` (`user_id`,`tool`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_parent_idx` ON `jobs` (`parent_job_id`,`batch_index`);--> statement-breakpoint
CREATE INDEX `jobs_project_created_idx` ON `jobs` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_status_updated_idx` ON `jobs` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `jobs_user_idempotency_idx` ON `jobs` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `jobs_api_key_idx` ON `jobs` (`api_key_id`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`reserved_delta` integer DEFAULT 0 NOT NULL,
	`balance_after` integer NOT NULL,
	`reserved_after` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`job_id` text,
	`payment_id` text,
	`dedupe_key` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `ledger_entries_user_created_idx` ON `ledger_entries` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `ledger_entries_job_idx` ON `ledger_entries` (`job_id`);--> statement-breakpoint
CREATE INDEX `ledger_entries_payment_idx` ON `ledger_entries` (`payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_dedupe_key_unique` ON `ledger_entries` (`dedupe_key`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`payment_id` text,
	`payload` text,
	`created_at` integer NOT NULL,
	`processed_at` integer,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_provider_event_unique` ON `payment_events` (`provider`,`event_id`);--> statement-breakpoint
CREATE INDEX `payment_events_payment_idx` ON `payment_events` (`payment_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text,
	`kind` text NOT NULL,
	`product` text,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`checkout_url` text,
	`idempotency_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_ref_unique` ON `payments` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `payments_user_created_idx` ON `payments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`plan` text NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text,
	`status` text DEFAULT 'incomplete' NOT NULL,
	`current_period_start` integer,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`cancelled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriptions_user_created_idx` ON `subscriptions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_provider_ref_unique` ON `subscriptions` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `subscriptions_status_period_idx` ON `subscriptions` (`status`,`current_period_end`);--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`tool` text NOT NULL,
	`jobs` integer DEFAULT 0 NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`pages_failed` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `tool`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `wallets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "wallets_reserved_nonnegative" CHECK("reserved" >= 0)
);
--> statement-breakpoint
CREATE TABLE `glossaries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`source_language` text NOT NULL,
	`target_language` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `glossaries_user_langs_idx` ON `glossaries` (`user_id`,`source_language`,`target_language`);--> statement-breakpoint
CREATE TABLE `glossary_terms` (
	`glossary_id` text NOT NULL,
	`source` text NOT NULL,
	`target` text NOT NULL,
	`case_sensitive` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`glossary_id`, `source`),
	FOREIGN KEY (`glossary_id`) REFERENCES `glossaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` text DEFAULT 'in_flight' NOT NULL,
	`response_status` integer,
	`response_body` text,
	`resource_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `translation_memory` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`source_language` text NOT NULL,
	`target_language` text NOT NULL,
	`source_hash` text NOT NULL,
	`source_text` text NOT NULL,
	`target_text` text NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `translation_memory_lookup_unique` ON `translation_memory` (`user_id`,`source_language`,`target_language`,`source_hash`);--> statement-breakpoint
CREATE INDEX `translation_memory_user_updated_idx` ON `translation_memory` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`user_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`replay_of` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`response_status` integer,
	`response_body_excerpt` text,
	`duration_ms` integer,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_attempt_at` integer,
	`delivered_at` integer,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`replay_of`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_created_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_user_idx` ON `webhook_deliveries` (`user_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_next_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_replay_of_idx` ON `webhook_deliveries` (`replay_of`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_endpoint_event_unique` ON `webhook_deliveries` (`endpoint_id`,`event_id`) WHERE "replay_of" IS NULL;--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text DEFAULT '["*"]' NOT NULL,
	`secret` text NOT NULL,
	`secret_prefix` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`active` integer DEFAULT true NOT NULL,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`disabled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_user_idx` ON `webhook_endpoints` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `status_overrides` (
	`id` text PRIMARY KEY NOT NULL,
	`component` text NOT NULL,
	`status` text NOT NULL,
	`message` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`starts_at` integer,
	`expires_at` integer,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE INDEX `status_overrides_component_created_idx` ON `status_overrides` (`component`,`created_at`);--> statement-breakpoint
CREATE INDEX `status_overrides_expires_idx` ON `status_overrides` (`expires_at`);