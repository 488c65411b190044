CREATE TABLE `voice_engine_choices` (
	`owner` text PRIMARY KEY NOT NULL,
	`engine` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `voice_keys` (
	`owner` text NOT NULL,
	`provider` text NOT NULL,
	`key_id` text NOT NULL,
	`nonce` text NOT NULL,
	`ciphertext` text NOT NULL,
	`last4` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`validated_at` integer,
	PRIMARY KEY(`owner`, `provider`)
);
