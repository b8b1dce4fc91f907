/** A token contract as the app shows it, whatever variation of the upstream record it came from. */
export interface Contract {
  address: string;
  type?: string;
  name?: string;
  symbol?: string;
  image?: string;
}
