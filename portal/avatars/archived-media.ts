// Implements: Avatar erase result (`archived_media`). The storage feature (portal/storage/) holds the
// portrait and generated clips a box archived; erasure only needs this one verb of it.

export interface ArchivedMedia {
  /**
   * Removes every archived portrait and clip of this avatar. `owner` is the person's e-mail; the
   * `subjects` are the credential subjects the library saw the avatar under (a box archives under
   * its uploader's subject). Must succeed when there is nothing to remove: erasure repeats it.
   */
  erase(owner: string, avatarId: string, subjects: readonly string[]): Promise<void>;
}

/** Nothing archived anywhere: the default until a storage is configured. */
export const noArchivedMedia: ArchivedMedia = { erase: async () => {} };
