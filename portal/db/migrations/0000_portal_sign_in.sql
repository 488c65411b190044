CREATE TABLE `portal_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`method` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `portal_sessions_expires` ON `portal_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sign_in_links` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`next` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `sign_in_links_email_created` ON `sign_in_links` (`email`,`created_at`);