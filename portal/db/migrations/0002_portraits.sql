CREATE TABLE `portraits` (
	`portrait_id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`description` text NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`size_bytes` integer NOT NULL,
	`generator` text NOT NULL,
	`seed` integer,
	`model` text,
	`storage_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`approved_at` integer,
	`consent_id` text,
	`regenerated_from` text
);
--> statement-breakpoint
CREATE INDEX `portraits_owner` ON `portraits` (`owner`,`created_at`);