CREATE TABLE IF NOT EXISTS `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`scope` text NOT NULL,
	`name` text,
	`hint` text,
	`last4` text,
	`owner` text,
	`parent_id` text,
	`created_at` integer NOT NULL,
	`created_by` text,
	`expires_at` integer,
	`revoked_at` integer,
	`revoked_by` text
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `credentials_owner_kind` ON `credentials` (`owner`,`kind`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `credentials_expires` ON `credentials` (`expires_at`);