/**
 * A small authoritative DNS server on 127.0.0.1 (UDP, dns2) whose TXT records the test
 * sets; the service reaches it through DNS_SERVERS. Every other name answers NXDOMAIN.
 */
import dns2 from "dns2";

const { Packet } = dns2;

export async function startDnsServer() {
  const txt = new Map<string, string[]>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? "").toLowerCase();
      asked.push(name);
      const values = question?.type === Packet.TYPE.TXT ? txt.get(name) : undefined;
      if (!values && !txt.has(name)) response.header.rcode = Packet.RCODE.NXDOMAIN;
      // dns2's typings want a resource object with toBuffer; the packet encoder builds it from this shape
      for (const data of values ?? [])
        response.answers.push({ name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data } as never);
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const { udp } = server.addresses() as { udp: { port: number } };
  return {
    /** for DNS_SERVERS */
    address: `127.0.0.1:${udp.port}`,
    /** sets (or with no values, clears) the TXT records of `name` */
    setTxt(name: string, ...values: string[]) {
      if (values.length) txt.set(name.toLowerCase(), values);
      else txt.delete(name.toLowerCase());
    },
    asked,
    close: () => server.close(),
  };
}
