// A small EC2 endpoint for tests: speaks the EC2 Query API (form-encoded POST, SigV4-signed, XML
// responses in the 2016-11-15 namespace) for the calls the `ec2` GPU driver makes.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const NS = "http://ec2.amazonaws.com/doc/2016-11-15/";
const STATE_CODES: Record<string, number> = { pending: 0, running: 16, "shutting-down": 32, terminated: 48, stopping: 64, stopped: 80 };

export interface FakeInstance {
  instanceId: string;
  imageId: string;
  instanceType: string;
  region: string;
  state: string;
  launchTime: Date;
  tags: Record<string, string>;
  publicIp: string;
  shutdownBehavior: string;
  userData: string | null;
  /** RunInstances' idempotency token: the same token and parameters answer this instance again. */
  clientToken: string | null;
  /** Stop protection (the `disableApiStop` attribute): StopInstances is refused with OperationNotPermitted. */
  disableApiStop: boolean;
  /** False until settle() while `eventual` is on: DescribeInstances does not list it yet. */
  listed: boolean;
}

export interface FakeEc2Call {
  action: string;
  region: string;
  params: URLSearchParams;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export class FakeEc2Server {
  readonly instances = new Map<string, FakeInstance>();
  readonly calls: FakeEc2Call[] = [];
  /** Error code to answer the next call of an action with (e.g. InsufficientInstanceCapacity). */
  readonly failNext = new Map<string, { code: string; status: number }>();
  /** Actions whose next call is carried out but answered 500 InternalError (the answer is lost). */
  readonly loseNextAnswer = new Set<string>();
  /** Regions that refuse every call with this error (an account not allowed there). */
  readonly refuseRegion = new Map<string, { code: string; status: number }>();
  /** DescribeInstances is eventually consistent, as EC2's is: a new instance is listed after settle(). */
  eventual = false;
  private seq = 0;

  private constructor(private readonly server: Server) {}

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  static async start(): Promise<FakeEc2Server> {
    let fake: FakeEc2Server;
    const server = createServer((req, res) => {
      void fake.handle(req).then(({ status, xml }) => {
        res.writeHead(status, { "content-type": "text/xml;charset=UTF-8" }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
      });
    });
    fake = new FakeEc2Server(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  /** Moves transitional states on, as EC2 does between calls. */
  settle(): void {
    for (const i of this.instances.values()) {
      i.listed = true;
      if (i.state === "pending") i.state = "running";
      else if (i.state === "stopping") i.state = "stopped";
      else if (i.state === "shutting-down") i.state = "terminated";
    }
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; xml: string }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const params = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    const auth = req.headers.authorization ?? "";
    const region = /Credential=[^/]+\/\d{8}\/([^/]+)\/ec2\/aws4_request/.exec(auth)?.[1];
    const action = params.get("Action") ?? "";
    const requestId = `req-${++this.seq}`;
    if (req.method !== "POST" || !region || !auth.startsWith("AWS4-HMAC-SHA256 ")) {
      return this.error(requestId, "AuthFailure", "AWS was not able to validate the provided access credentials", 401);
    }
    if (params.get("Version") !== "2016-11-15") return this.error(requestId, "InvalidParameterValue", "bad Version", 400);
    this.calls.push({ action, region, params });
    const refused = this.refuseRegion.get(region);
    if (refused)
      return this.error(requestId, refused.code, `You are not authorized to perform this operation in ${region}.`, refused.status);
    const failure = this.failNext.get(action);
    if (failure) {
      this.failNext.delete(action);
      return this.error(requestId, failure.code, `simulated ${failure.code}`, failure.status);
    }
    const answer = this.answer(requestId, region, action, params);
    if (this.loseNextAnswer.delete(action)) return this.error(requestId, "InternalError", "An internal error has occurred.", 500);
    return answer;
  }

  private answer(requestId: string, region: string, action: string, params: URLSearchParams): { status: number; xml: string } {
    switch (action) {
      case "RunInstances":
        return this.runInstances(requestId, region, params);
      case "DescribeInstances":
        return this.describeInstances(requestId, region, params);
      case "StartInstances":
        return this.transition(requestId, params, "StartInstancesResponse", ["stopped"], "pending", true);
      case "StopInstances": {
        const id = params.get("InstanceId.1") ?? "";
        if (this.instances.get(id)?.disableApiStop) {
          return this.error(
            requestId,
            "OperationNotPermitted",
            `The instance '${id}' may not be stopped. Modify its 'disableApiStop' instance attribute and try again.`,
            400,
          );
        }
        return this.transition(requestId, params, "StopInstancesResponse", ["pending", "running"], "stopping");
      }
      case "TerminateInstances":
        return this.transition(
          requestId,
          params,
          "TerminateInstancesResponse",
          ["pending", "running", "stopping", "stopped"],
          "shutting-down",
        );
      case "DescribeInstanceStatus":
        return this.describeStatus(requestId, params);
      default:
        return this.error(requestId, "InvalidAction", `The action ${action} is not valid for this web service.`, 400);
    }
  }

  private error(requestId: string, code: string, message: string, status: number) {
    return {
      status,
      xml: `<Response><Errors><Error><Code>${code}</Code><Message>${esc(message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`,
    };
  }

  private instanceXml(i: FakeInstance, tag = "item"): string {
    const running = i.state === "running" || i.state === "pending";
    const tags = Object.entries(i.tags)
      .map(([k, v]) => `<item><key>${esc(k)}</key><value>${esc(v)}</value></item>`)
      .join("");
    return (
      `<${tag}><instanceId>${i.instanceId}</instanceId><imageId>${i.imageId}</imageId>` +
      `<instanceState><code>${STATE_CODES[i.state]}</code><name>${i.state}</name></instanceState>` +
      `<instanceType>${esc(i.instanceType)}</instanceType><launchTime>${i.launchTime.toISOString()}</launchTime>` +
      `<placement><availabilityZone>${i.region}a</availabilityZone><tenancy>default</tenancy></placement>` +
      (running
        ? `<ipAddress>${i.publicIp}</ipAddress><dnsName>ec2-${i.publicIp.replace(/\./g, "-")}.${i.region}.compute.amazonaws.com</dnsName>`
        : "<dnsName/>") +
      (i.clientToken ? `<clientToken>${esc(i.clientToken)}</clientToken>` : "") +
      `<tagSet>${tags}</tagSet></${tag}>`
    );
  }

  private runInstances(requestId: string, region: string, p: URLSearchParams) {
    // Idempotency: a repeated token with the same parameters answers the instance it made.
    const token = p.get("ClientToken");
    const earlier = token ? [...this.instances.values()].find((i) => i.clientToken === token && i.region === region) : undefined;
    if (earlier) {
      if (earlier.imageId !== p.get("ImageId") || earlier.instanceType !== p.get("InstanceType")) {
        return this.error(
          requestId,
          "IdempotentParameterMismatch",
          "The client token you have provided is associated with a resource that is already deleted or has different parameters.",
          400,
        );
      }
      return this.reservation(requestId, earlier);
    }
    const tags: Record<string, string> = {};
    for (let n = 1; p.has(`TagSpecification.1.Tag.${n}.Key`); n++)
      tags[p.get(`TagSpecification.1.Tag.${n}.Key`)!] = p.get(`TagSpecification.1.Tag.${n}.Value`) ?? "";
    const n = this.instances.size + 1;
    const i: FakeInstance = {
      instanceId: `i-${(0x0abc0000 + n).toString(16).padStart(17, "0")}`,
      imageId: p.get("ImageId") ?? "",
      instanceType: p.get("InstanceType") ?? "m1.small",
      region,
      state: "pending",
      launchTime: new Date(Math.floor(Date.now() / 1000) * 1000),
      tags,
      publicIp: `203.0.113.${n}`,
      shutdownBehavior: p.get("InstanceInitiatedShutdownBehavior") ?? "stop",
      userData: p.get("UserData"),
      clientToken: token,
      disableApiStop: p.get("DisableApiStop") === "true",
      listed: !this.eventual,
    };
    this.instances.set(i.instanceId, i);
    return this.reservation(requestId, i);
  }

  private reservation(requestId: string, i: FakeInstance) {
    return {
      status: 200,
      xml: `<RunInstancesResponse xmlns="${NS}"><requestId>${requestId}</requestId><reservationId>r-${i.instanceId}</reservationId><ownerId>123456789012</ownerId><groupSet/><instancesSet>${this.instanceXml(i)}</instancesSet></RunInstancesResponse>`,
    };
  }

  private describeInstances(requestId: string, region: string, p: URLSearchParams) {
    const filters: { name: string; values: string[] }[] = [];
    for (let f = 1; p.has(`Filter.${f}.Name`); f++) {
      const values: string[] = [];
      for (let v = 1; p.has(`Filter.${f}.Value.${v}`); v++) values.push(p.get(`Filter.${f}.Value.${v}`)!);
      filters.push({ name: p.get(`Filter.${f}.Name`)!, values });
    }
    const matches = [...this.instances.values()].filter(
      (i) =>
        i.region === region &&
        i.listed &&
        filters.every((f) =>
          f.name === "instance-state-name"
            ? f.values.includes(i.state)
            : f.name.startsWith("tag:")
              ? f.values.includes(i.tags[f.name.slice(4)])
              : true,
        ),
    );
    const reservations = matches
      .map(
        (i) =>
          `<item><reservationId>r-${i.instanceId}</reservationId><ownerId>123456789012</ownerId><groupSet/><instancesSet>${this.instanceXml(i)}</instancesSet></item>`,
      )
      .join("");
    return {
      status: 200,
      xml: `<DescribeInstancesResponse xmlns="${NS}"><requestId>${requestId}</requestId><reservationSet>${reservations}</reservationSet></DescribeInstancesResponse>`,
    };
  }

  private transition(requestId: string, p: URLSearchParams, response: string, from: string[], to: string, restart = false) {
    const items: string[] = [];
    for (let n = 1; p.has(`InstanceId.${n}`); n++) {
      const i = this.instances.get(p.get(`InstanceId.${n}`)!);
      if (!i)
        return this.error(requestId, "InvalidInstanceID.NotFound", `The instance ID '${p.get(`InstanceId.${n}`)}' does not exist`, 400);
      if (!from.includes(i.state) && i.state !== to) {
        return this.error(
          requestId,
          "IncorrectInstanceState",
          `The instance '${i.instanceId}' is not in a state from which it can be ${to}.`,
          400,
        );
      }
      const previous = i.state;
      i.state = to;
      if (restart) i.launchTime = new Date(Math.floor(Date.now() / 1000) * 1000);
      items.push(
        `<item><instanceId>${i.instanceId}</instanceId><currentState><code>${STATE_CODES[to]}</code><name>${to}</name></currentState><previousState><code>${STATE_CODES[previous]}</code><name>${previous}</name></previousState></item>`,
      );
    }
    return {
      status: 200,
      xml: `<${response} xmlns="${NS}"><requestId>${requestId}</requestId><instancesSet>${items.join("")}</instancesSet></${response}>`,
    };
  }

  private describeStatus(requestId: string, p: URLSearchParams) {
    const items: string[] = [];
    for (let n = 1; p.has(`InstanceId.${n}`); n++) {
      const i = this.instances.get(p.get(`InstanceId.${n}`)!);
      if (!i) continue;
      const ok = i.state === "running" ? "ok" : "not-applicable";
      const passed = i.state === "running" ? "passed" : "not-applicable";
      items.push(
        `<item><instanceId>${i.instanceId}</instanceId><availabilityZone>${i.region}a</availabilityZone>` +
          `<instanceState><code>${STATE_CODES[i.state]}</code><name>${i.state}</name></instanceState>` +
          `<systemStatus><status>${ok}</status><details><item><name>reachability</name><status>${passed}</status></item></details></systemStatus>` +
          `<instanceStatus><status>${ok}</status><details><item><name>reachability</name><status>${passed}</status></item></details></instanceStatus></item>`,
      );
    }
    return {
      status: 200,
      xml: `<DescribeInstanceStatusResponse xmlns="${NS}"><requestId>${requestId}</requestId><instanceStatusSet>${items.join("")}</instanceStatusSet></DescribeInstanceStatusResponse>`,
    };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
