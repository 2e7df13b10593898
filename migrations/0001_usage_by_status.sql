ALTER TABLE `usage_daily` ADD `jobs_completed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `jobs_partially_completed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `jobs_failed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `jobs_cancelled` integer DEFAULT 0 NOT NULL;