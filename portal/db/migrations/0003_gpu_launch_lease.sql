CREATE TABLE `gpu_launch_leases` (
	`deployment` text PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`holder` text NOT NULL,
	`region` text NOT NULL,
	`instance_type` text NOT NULL,
	`outcome` text NOT NULL,
	`instance_id` text,
	`acquired_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
