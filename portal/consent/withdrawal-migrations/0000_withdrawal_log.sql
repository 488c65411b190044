CREATE TABLE IF NOT EXISTS `publication_withdrawals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner` text NOT NULL,
	`avatar_id` text NOT NULL,
	`requested_at` integer NOT NULL,
	`flushed_at` integer
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `publication_withdrawals_owner_avatar` ON `publication_withdrawals` (`owner`,`avatar_id`,`id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `publication_withdrawals_unflushed` ON `publication_withdrawals` (`id`) WHERE flushed_at IS NULL;