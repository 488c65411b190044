CREATE TABLE IF NOT EXISTS `avatar_erase_orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`avatar_id` text NOT NULL,
	`owner` text,
	`ordered_at` integer NOT NULL,
	`done_at` integer,
	`done_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS `avatar_erase_orders_pending` ON `avatar_erase_orders` (`subject`,`avatar_id`) WHERE done_at IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `avatar_erase_orders_owner` ON `avatar_erase_orders` (`owner`,`avatar_id`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `avatar_observations` (
	`subject` text NOT NULL,
	`avatar_id` text NOT NULL,
	`owner` text,
	`name` text NOT NULL,
	`source_kind` text DEFAULT 'unknown' NOT NULL,
	`state` text NOT NULL,
	`prepared_in_region` text DEFAULT '' NOT NULL,
	`weights_volume` text DEFAULT '' NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`consent_id` text,
	`visibility` text DEFAULT 'private' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`subject`, `avatar_id`)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `avatar_observations_owner` ON `avatar_observations` (`owner`,`avatar_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `avatar_observations_public` ON `avatar_observations` (`created_at`) WHERE visibility = 'public';--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `upload_attestations` (
	`consent_id` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL,
	`attested_at` integer NOT NULL,
	`source_kind` text DEFAULT 'image' NOT NULL
);
