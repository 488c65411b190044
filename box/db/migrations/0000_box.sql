CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`title` text NOT NULL,
	`preview` text NOT NULL,
	`turns` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_subject_updated` ON `conversations` (`subject`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `current_conversations` (
	`subject` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings_records` (
	`subject` text PRIMARY KEY NOT NULL,
	`record` text NOT NULL,
	`updated_at` integer NOT NULL
);
