CREATE TABLE IF NOT EXISTS `publication_consents` (
	`attestation_id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`avatar_id` text NOT NULL,
	`terms_version` text NOT NULL,
	`terms_sha256` text NOT NULL,
	`attested_at` integer NOT NULL,
	`withdrawn_at` integer
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `publication_consents_owner_avatar` ON `publication_consents` (`owner`,`avatar_id`);